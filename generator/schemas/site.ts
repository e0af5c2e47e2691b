/** `site.yaml`: every fact about the site, so the generator can build any content folder. */
import { z } from 'zod';
import { text, url } from './fields.ts';
import { RESOURCE_TYPES } from './vocabulary.ts';
import { API_BASE_PATH, API_MAJOR_VERSION } from '../shared/policy.ts';

export const siteSchema = z.strictObject({
  name: text,
  site_url: url.transform((value) => value.replace(/\/+$/, '')),
  language: z.string().regex(/^[a-z]{2,3}-[A-Z]{2}$/, { error: 'must be a language tag like "en-US"' }),
  /**
   * The API's version, reported by health, the index and the OpenAPI document. Its major is the base path's
   * (`/v1/`), which is code: a new major is a new set of routes, not an edit.
   */
  api_version: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/, { error: 'must be a semantic version like "1.3.0"' })
    .refine((version) => Number(version.split('.')[0]) === API_MAJOR_VERSION, {
      error: `must be ${API_MAJOR_VERSION}.x.y: this site serves ${API_BASE_PATH}/, and a new major version needs new routes`,
    }),
  feed_version: z.string().regex(/^\d+\.\d+$/, { error: 'must be "<major>.<minor>", like "1.2" (quote it)' }),
  hub: z.strictObject({
    name: text,
    description: text,
    update_frequency: text,
    list: text,
    filter: text,
  }),
  resource_types: z.array(z.enum(RESOURCE_TYPES)).min(1),
  /** Who answers questions about the API, shown in the OpenAPI document (`info.contact`). */
  contact: z
    .strictObject({ name: text.optional(), email: z.email({ error: 'must be an email address' }).optional(), url: url.optional() })
    .refine((contact) => contact.name || contact.email || contact.url, { error: 'give at least one of name, email or url' })
    .optional(),
  /** The licence the API's data is offered under, shown in the OpenAPI document. */
  license: z
    .strictObject({
      name: text,
      identifier: z
        .string()
        .regex(/^[A-Za-z0-9.+-]+$/, { error: 'must be an SPDX licence id like "CC-BY-4.0"' })
        .optional(),
      url: url.optional(),
    })
    .refine((license) => !(license.identifier && license.url), { error: 'give identifier or url, not both (OpenAPI 3.1)' })
    .optional(),
});

export type Site = z.output<typeof siteSchema>;
