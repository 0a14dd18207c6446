import * as v from 'valibot';
import { fieldObject, lengthKey } from '../validation';
import { SettingsFirstName } from './accounts';

/**
 * POST veriff-kyc: the legal name the identity provider checks the document against. First name
 * 3 to 100 characters; last name required, at most 100.
 */
export const KycSessionInput = fieldObject({
  firstName: SettingsFirstName,
  lastName: v.pipe(
    v.string('LASTNAME_MISSING'),
    v.trim(),
    v.nonEmpty('LASTNAME_MISSING'),
    v.maxLength(100, lengthKey('lastName', { max: 100 })),
  ),
});
export type KycSessionInput = v.InferOutput<typeof KycSessionInput>;

/** The answer of POST veriff-kyc: where the person verifies (domain/responses/users.ts). */
export type { KycSession } from '../responses/users';
