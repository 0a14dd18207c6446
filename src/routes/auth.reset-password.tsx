import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from './-guards';

export const Route = createFileRoute('/auth/reset-password')({ validateSearch: optionalString('t') });
