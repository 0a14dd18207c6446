import { expect, expectAccessible, latestEmail, logOut, MAILPIT, signUp, test, uniqueEmail } from './support';

test.describe('accounts', () => {
  test('sign up, log out, a protected page sends to AuthConnect, log in returns there', async ({ page }) => {
    const email = uniqueEmail('ada');
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/auth\/connect$/);

    // Sign-up validation happens before any call.
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/auth\/signup$/);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByLabel('Email')).not.toBeEditable();
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Password must be at least 8 Characters')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await page.getByLabel('Confirm password').fill('correct-horse-2');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText("Passwords don't match.")).toBeVisible();
    await page.getByLabel('Confirm password').fill('correct-horse-1');
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/auth\/name$/);
    await page.getByLabel('First name').fill('Ad');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('First name needs at least 3 letters, hyphens or underscores')).toBeVisible();
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name (optional)').fill('Lovelace');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/auth\/welcome$/);
    await expect(page.getByRole('heading', { name: 'Welcome to Vitrine!' })).toBeVisible();
    await page.getByLabel('Username').fill('ada_the_first');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.screenshot({ path: 'test-results/screens/home-logged-in.png' });

    await logOut(page);

    await page.goto('/settings');
    await expect(page).toHaveURL(/\/auth\/connect$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page).toHaveURL(/\/settings\/account$/);
    await expect(page.getByLabel('Username')).toHaveValue('ada_the_first');
    await page.screenshot({ path: 'test-results/screens/settings-account.png' });
  });

  test('a token that stops working logs out and remembers the path', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const email = uniqueEmail('grace');
    await signUp(page, email, 'first-password');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.goto('/settings/security');
    await expect(page.getByRole('heading', { name: 'Password' })).toBeVisible();

    // Another device (its own cookies) changes the password: every earlier session ends, and this
    // browser's refresh cookie cannot renew its token either.
    const device = await playwright.request.newContext({ baseURL });
    const login = await device.post('/api/auth/logins', {
      data: { email, password: 'first-password' },
    });
    const { authToken } = (await login.json()) as { authToken: string };
    const change = await device.patch('/api/users/me', {
      headers: { Authorization: `Bearer ${authToken}` },
      data: { oldPassword: 'first-password', newPassword: 'second-password' },
    });
    expect(change.ok()).toBeTruthy();
    await device.dispose();

    // The next protected call answers 401: logged out, the path remembered.
    await page.reload();
    await expect(page).toHaveURL(/\/auth\/connect$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('second-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
  });

  test('forgot password: the emailed link sets a new password', async ({ page }) => {
    const email = uniqueEmail('katherine');
    await signUp(page, email, 'old-password-1');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await logOut(page);

    await page.goto('/auth/connect');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot-password$/);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

    // The email arrives in Mailpit, whose inbox a newcomer opens (README).
    const mail = await latestEmail(page, email);
    expect(mail.subject).toBe('Reset your Vitrine password');
    const inbox = await page.context().newPage();
    await inbox.goto(MAILPIT);
    const row = inbox
      .getByRole('link')
      .filter({ hasText: email })
      .filter({ hasText: 'Reset your Vitrine password' });
    await expect(row).toBeVisible();
    await inbox.screenshot({ path: 'test-results/screens/mailpit-inbox.png' });
    await row.click();
    await expect(inbox.getByText('Reset your Vitrine password').first()).toBeVisible();
    const preview = inbox.frameLocator('iframe').first();
    await expect(preview.getByRole('link', { name: 'Choose a new password' })).toBeVisible();
    await inbox.screenshot({ path: 'test-results/screens/mailpit-reset-email.png', fullPage: true });
    await inbox.close();

    // A link to the app's own origin (PUBLIC_URL).
    const url = new URL(mail.link!);
    expect(url.origin).toBe(new URL(page.url()).origin);
    await page.goto(`${url.pathname}${url.search}`);
    // The token leaves the address bar once the page has it.
    await expect(page).toHaveURL(/\/auth\/reset-password$/);
    await page.getByLabel('New password', { exact: true }).fill('new-password-1');
    await page.getByLabel('Confirm new password').fill('new-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

    // The link works once.
    await page.goto(`${url.pathname}${url.search}`);
    await page.getByLabel('New password', { exact: true }).fill('another-password');
    await page.getByLabel('Confirm new password').fill('another-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('This reset link is invalid or has expired')).toBeVisible();

    await page.goto('/auth/connect');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill('new-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('changing the email takes the current password and a link sent to the new address', async ({
    page,
  }) => {
    const email = uniqueEmail('hedy');
    const newEmail = uniqueEmail('hedy-new');
    await signUp(page, email, 'first-password');
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await page.goto('/settings/account');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Email').fill(newEmail);
    await page.getByRole('button', { name: 'Save' }).click();
    // The bearer token alone cannot change it: the current password is asked for.
    await expect(page.getByText('Please fill in all the required information')).toBeVisible();
    await page.getByLabel('Current password').fill('first-password');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Open the link we sent to ${newEmail}`)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByText(`Waiting for ${newEmail} to be confirmed`)).toBeVisible();
    const notice = await latestEmail(page, email);
    expect(notice.text).toContain(newEmail);

    const mail = await latestEmail(page, newEmail);
    const url = new URL(mail.link!);
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { name: 'Email confirmed' })).toBeVisible();
    await expect(page.getByText(`${newEmail} is now the email of your account`)).toBeVisible();
    await expect(page).toHaveURL(/\/confirm-email$/);
    await page.screenshot({ path: 'test-results/email-confirmed.png' });
    await expectAccessible(page, 'email confirmed');

    // The link works once.
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page.getByRole('heading', { name: 'We could not confirm your email' })).toBeVisible();
    await page.goto('/settings/account');
    await expect(page.getByLabel('Email')).toHaveValue(newEmail);
  });

  test('unknown paths show the Not Found page; coming-soon pages', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(
      page.getByRole('heading', { name: "We couldn't find what you're looking for" }),
    ).toBeVisible();
    await page.goto('/drops');
    await expect(page.getByRole('heading', { name: 'Coming soon' })).toBeVisible();
  });
});
