/**
 * Strings for a schema: its `format`, its `pattern` (through Faker's
 * `helpers.fromRegExp`, each result checked against the pattern), a
 * realistic value when the property's name suggests one, and the length
 * bounds. Faker may be the browser's, with little locale data: a call that
 * needs data it lacks throws, and the next way is taken, deterministically.
 */
import type { Faker } from '@faker-js/faker';
import { between, pick, uuidV4, type Random } from './schema-random.js';
import type { Schema } from './schema-node.js';

/** What a string is made from: the generator, Faker (if any), the property's name, what the items are. */
export interface StringContext {
  random: Random;
  faker: Faker | undefined;
  name: string | undefined;
  subject: string | undefined;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const letters = (random: Random, n: number) => Array.from({ length: n }, () => pick(random, [...LETTERS])).join('');

/** Faker's answer, or undefined when this Faker lacks the data (the browser's) or it throws. */
function tryFaker(faker: Faker | undefined, make: (faker: Faker) => string): string | undefined {
  if (!faker) return undefined;
  try {
    return make(faker);
  } catch {
    return undefined;
  }
}

/** The pattern as a RegExp as Ajv reads it (`u` flag), or without the flag, or undefined if neither compiles. */
export function patternOf(schema: Schema): RegExp | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  for (const flags of ['u', '']) {
    try {
      return new RegExp(schema.pattern, flags);
    } catch {
      // tried without the flag next
    }
  }
  return undefined;
}

/** Whether a string keeps the schema's length bounds and pattern (lengths in code points, as Ajv counts). */
export function fitsString(schema: Schema, value: string): boolean {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  const pattern = patternOf(schema);
  return !pattern || pattern.test(value);
}

const randomDate = (random: Random) => new Date(Date.UTC(2020, 0, 1) + between(random, 0, 10 * 365 * 86_400) * 1000);

/** A value of a format this module knows, else undefined. */
function formatted(format: unknown, context: StringContext): string | undefined {
  const { random, faker } = context;
  const word = () =>
    tryFaker(faker, (f) =>
      f.word
        .noun()
        .toLowerCase()
        .replace(/[^a-z]/g, ''),
    ) || letters(random, 6);
  switch (format) {
    case 'uuid':
      return uuidV4(random);
    case 'date-time':
      return randomDate(random).toISOString().replace('.000Z', 'Z');
    case 'date':
      return randomDate(random).toISOString().slice(0, 10);
    case 'time':
      return randomDate(random).toISOString().slice(11, 19) + 'Z';
    case 'email':
      return tryFaker(faker, (f) => f.internet.email({ provider: 'example.com' })) ?? `${word()}${between(random, 1, 999)}@example.com`;
    case 'uri':
    case 'url':
    case 'uri-reference':
      return tryFaker(faker, (f) => f.internet.url({ appendSlash: false })) ?? `https://${word()}.example.com`;
    case 'hostname':
      return tryFaker(faker, (f) => f.internet.domainName()) ?? `${word()}.example.com`;
    case 'ipv4':
      return Array.from({ length: 4 }, () => between(random, 1, 254)).join('.');
    case 'ipv6':
      return Array.from({ length: 8 }, () => between(random, 0, 0xffff).toString(16)).join(':');
    case 'byte':
      return btoa(String.fromCharCode(...Array.from({ length: between(random, 4, 12) }, () => between(random, 0, 255))));
    default:
      return undefined;
  }
}

/**
 * Names that suggest what a string holds, and how Faker makes one. `name`
 * depends on what the items are: pets get pet names, people people's names,
 * anything else a product's name (and, where Faker lacks those, a pet's name).
 */
const HINTS: readonly [RegExp, (faker: Faker, subject: string) => string][] = [
  [/e-?mail/i, (f) => f.internet.email({ provider: 'example.com' })],
  [/^(url|uri|website|homepage|link|href)$|(Url|Uri)$/i, (f) => f.internet.url({ appendSlash: false })],
  [/^(first_?name|given_?name)$/i, (f) => f.person.firstName()],
  [/^(last_?name|surname|family_?name)$/i, (f) => f.person.lastName()],
  [/^(full_?name|display_?name)$|^(owner|customer|user|author|contact)_?name$/i, (f) => f.person.fullName()],
  [/^(user_?name|login|handle)$/i, (f) => f.internet.username()],
  [/^name$|(pet|animal)_?name$/i, (f, subject) => itemName(f, subject)],
  [/^(description|summary|comment|note|notes|bio|text|message)$/i, (f) => f.lorem.sentence()],
  [/^title$/i, (f) => f.lorem.words({ min: 2, max: 4 })],
  [/^colou?r$/i, (f) => f.color.human()],
  [/^(company|brand|manufacturer|vendor|supplier)$/i, (f) => f.company.name()],
  [/^city$/i, (f) => f.location.city()],
  [/^country$/i, (f) => f.location.country()],
  [/^(street|address|street_?address)$/i, (f) => f.location.streetAddress()],
  [/^(zip|zip_?code|post_?code|postal_?code)$/i, (f) => f.location.zipCode()],
  [/^currency$/i, (f) => f.finance.currencyCode()],
];

function itemName(faker: Faker, subject: string): string {
  if (/pet|animal|dog|cat|bird|fish/i.test(subject)) return faker.animal.petName();
  if (/user|person|people|customer|owner|employee|member|author|contact|staff/i.test(subject)) return faker.person.fullName();
  return tryFaker(faker, (f) => f.commerce.productName()) ?? faker.animal.petName();
}

/** Tries of Faker per patterned string: a result may match the pattern yet miss the length bounds. */
const PATTERN_TRIES = 20;

/** An innermost group as the text of one of its matches: the first alternative, repeated as few times as allowed. */
function ungroup(_group: string, body: string, quantifier: string | undefined): string {
  const first = body.split('|')[0] ?? '';
  if (quantifier === '?' || quantifier === '*' || quantifier?.startsWith('{0')) return '';
  const times = /^\{(\d+)/.exec(quantifier ?? '')?.[1];
  return first.repeat(times === undefined ? 1 : Number(times));
}

/**
 * The pattern in the part of regular expressions Faker's `fromRegExp` reads:
 * `\d`, `\w`, `\s` and escaped characters written as classes, `+` and `*`
 * at most 8 times; groups (innermost first) replaced by
 * one of their matches; of alternatives, the first; anchors dropped. What
 * this makes is checked against the real pattern, so a rewrite that goes
 * wrong costs a retry, never a wrong value.
 */
function forFaker(pattern: string): RegExp {
  let source = pattern
    .replace(/\\d/g, '[0-9]')
    .replace(/\\w/g, '[a-zA-Z0-9_]')
    .replace(/\\s/g, ' ')
    .replace(/\\([^a-zA-Z0-9])/g, '[$1]')
    .replace(/\[([^\]]*)\[([^\]]*)\]/g, '[$1$2')
    .replace(/(?<=[\]\w)])\+/g, '{1,8}')
    .replace(/(?<=[\]\w)])\*/g, '{0,8}');
  for (let round = 0; round < 8 && /(?<!\\)\(/.test(source); round++) {
    source = source.replace(/(?<!\\)\((?:\?:)?([^()]*)\)([?*+]|\{\d+(?:,\d*)?\})?\??/g, ungroup);
  }
  const first = source.split(/(?<!\\)\|/)[0] ?? '';
  return new RegExp(first.replace(/^\^/, '').replace(/(?<!\\)\$$/, ''));
}

/**
 * A string matching the schema's pattern: Faker's `fromRegExp` tried up to
 * PATTERN_TRIES times, each result checked; then the schema's `example` and
 * `default` if they match. Undefined when none does (lookarounds,
 * backreferences, negated classes Faker cannot meet).
 */
function patterned(schema: Schema, context: StringContext): string | undefined {
  const pattern = patternOf(schema);
  if (!pattern || typeof schema.pattern !== 'string') return undefined;
  let source: RegExp | undefined;
  try {
    source = forFaker(schema.pattern);
  } catch {
    source = undefined;
  }
  for (let attempt = 0; source && attempt < PATTERN_TRIES; attempt++) {
    const from = source;
    const made = tryFaker(context.faker, (f) => f.helpers.fromRegExp(from));
    if (made !== undefined && fitsString(schema, made)) return made;
  }
  return [schema.example, schema.default].find((v): v is string => typeof v === 'string' && fitsString(schema, v));
}

/** Text within the length bounds: Faker's words (or letters), cut or padded. */
function plain(schema: Schema, context: StringContext): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Math.max(min, 40);
  let text = tryFaker(context.faker, (f) => f.lorem.words({ min: 1, max: 3 })) ?? letters(context.random, between(context.random, 3, 10));
  text = [...text].slice(0, max).join('').trimEnd();
  if (text.length < min) text += letters(context.random, min - text.length);
  return text;
}

/**
 * A string for the schema, or undefined when its pattern could not be met
 * (the caller leaves an optional property out). Order: format, pattern, a
 * hint from the property's name, plain text; each result is kept only if it
 * fits the length bounds and the pattern.
 */
export function sampleString(schema: Schema, context: StringContext): string | undefined {
  const format = formatted(schema.format, context);
  if (format !== undefined && fitsString(schema, format)) return format;
  if (patternOf(schema)) return patterned(schema, context);
  const name = context.name ?? '';
  const hint = HINTS.find(([test]) => test.test(name));
  const hinted = hint && tryFaker(context.faker, (f) => hint[1](f, context.subject ?? ''));
  if (hinted !== undefined && fitsString(schema, hinted)) return hinted;
  return plain(schema, context);
}
