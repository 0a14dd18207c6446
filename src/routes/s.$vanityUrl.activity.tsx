import { createFileRoute } from '@tanstack/react-router';
import { parseActivitySearch } from '#domain/activitySearch';

/** A storefront's Activity tab (?kinds= narrows it); the storefront page renders it. */
export const Route = createFileRoute('/s/$vanityUrl/activity')({ validateSearch: parseActivitySearch });
