import { createFileRoute } from '@tanstack/react-router';
import { optionalString } from './-guards';

export const Route = createFileRoute('/auth/forgot-password')({ validateSearch: optionalString('email') });
