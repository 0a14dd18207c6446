import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// A screen's first render imports its lazily loaded route module, which vitest transforms on first
// use: on a busy 2-core machine that takes more than testing-library's default 1 s. A `findBy`
// waits up to 5 s, so a missing element still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: the router's scroll restoration calls scrollTo, which jsdom only reports.
window.scrollTo = () => {};
