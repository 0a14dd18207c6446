import { createFileRoute } from '@tanstack/react-router';
import { privateHead } from '#domain/pageHead';
import { requireLogin } from './-guards';
import { fixedHead } from './-head';

/**
 * The pages of a signed-in user, under one pathless layout: its guard sends a visitor who is not
 * logged in to sign in (remembering where they were headed) before any of their loaders runs.
 */
export const Route = createFileRoute('/_authenticated')({
  head: fixedHead(privateHead('Your account')),
  beforeLoad: requireLogin,
});
