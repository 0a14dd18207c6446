/**
 * What the browser keeps between visits: the session token, the login redirect, the cookie choice
 * and the country of the last card paid with (the next card form starts with it).
 */
const KEYS = {
  token: 'vitrine.token',
  redirect: 'vitrine.loginRedirect',
  cookies: 'vitrine.cookiesAccepted',
  billingCountry: 'vitrine.billingCountry',
};

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts for the tab.
  }
}

export const browserStorage = {
  token: () => read(KEYS.token),
  setToken: (token: string | null) => write(KEYS.token, token),
  loginRedirect: () => read(KEYS.redirect),
  setLoginRedirect: (path: string | null) => write(KEYS.redirect, path),
  cookiesAccepted: () => read(KEYS.cookies) === 'true',
  acceptCookies: () => write(KEYS.cookies, 'true'),
  billingCountry: () => read(KEYS.billingCountry),
  setBillingCountry: (country: string) => write(KEYS.billingCountry, country),
};
