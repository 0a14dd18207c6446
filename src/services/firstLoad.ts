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

/** A fetch that answers a GET the server already answered from its note, once, and else asks. */
export function replayingFetch(answers: FirstLoadAnswers, inner: typeof fetch = fetch) {
  const left = new Map(Object.entries(answers));
  const replaying = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = requestOf(input, init);
    const key = keyOf(request.url);
    const text = request.method === 'GET' ? left.get(key) : undefined;
    if (text === undefined) return inner(request);
    left.delete(key);
    return Promise.resolve(
      new Response(text, { status: 200, headers: { 'Content-Type': 'application/json' } }),
    );
  };
  return replaying as typeof fetch;
}
