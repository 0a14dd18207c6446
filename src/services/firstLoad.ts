/**
 * The API answers a server-rendered page was made from, handed to the browser inside the page so
 * that its first load reads them instead of asking again: the browser's route loaders then
 * produce exactly the data the server rendered with, and React can take over the server's markup.
 *
 * Only successful GET answers are kept, keyed by path and query (the same in both places: the
 * server calls its API at another origin). Each is read once: a later load of the same page asks
 * the API again.
 */
export type FirstLoadAnswers = Record<string, string>;

const keyOf = (url: string) => {
  const { pathname, search } = new URL(url, 'http://first-load.invalid');
  return `${pathname}${search}`;
};

const requestOf = (input: RequestInfo | URL, init?: RequestInit) =>
  input instanceof Request && !init ? input : new Request(input, init);

/** A fetch that notes every successful GET answer (as text) on its way back. */
export function recordingFetch(inner: typeof fetch) {
  const answers: FirstLoadAnswers = {};
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = requestOf(input, init);
    const response = await inner(request);
    if (request.method !== 'GET' || response.status !== 200) return response;
    const text = await response.text();
    answers[keyOf(request.url)] = text;
    return new Response(text, { status: 200, headers: response.headers });
  };
  return { fetch: recording as typeof fetch, answers };
}

/**
 * The page's own answers, each given once: the function returned answers a GET of a URL (its path
 * and query, at any origin) with the text the server noted, the first time it is asked; else
 * undefined, and the API is asked. The API client reads them before it even loads its HTTP client,
 * so a first load that asks nothing new never downloads it.
 */
export function firstLoadAnswers(answers: FirstLoadAnswers) {
  const left = new Map(Object.entries(answers));
  return (url: string): string | undefined => {
    const key = keyOf(url);
    const text = left.get(key);
    left.delete(key);
    return text;
  };
}
