// A pragmatic recipient check: one plain address, the kind a CSV column holds. It rejects what
// would make a mail transport misbehave or deliver somewhere unintended (display names, lists,
// spaces, control characters) rather than implementing all of RFC 5322. Callers trim first; the
// address itself must not carry surrounding whitespace.
//
// Accepted: `local@domain` where local is 1-64 characters without whitespace, control characters,
// invisible or formatting characters (see INVISIBLE_CHARACTER)
// or any of `@ , ; : < > ( ) [ ] \ "`, not starting or ending with a dot, no `..`; the domain is
// dot-separated labels of letters (any script), digits and inner hyphens, with at least one dot,
// a top-level label that is not all digits, or exactly `localhost`. At most 254 characters in all.

// The common case (a plain ASCII address) in one match; everything it accepts, the checks below accept.
const PLAIN_ASCII =
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/**
 * Code points that show as nothing or change how the text around them shows, so an address holding
 * one reads as another: default-ignorable ones (zero-width, soft hyphen, U+034F, variation selectors,
 * Mongolian vowel separator…), format characters (bidi controls, U+061C…), noncharacters (U+FFFF…)
 * and lone surrogates. Whole Unicode properties, not a list: new ones are covered as Node learns them.
 */
export const INVISIBLE_CHARACTER = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Noncharacter_Code_Point}\p{Cs}]/u;

/** `U+00AD` for the first invisible character of `text`, or null. */
export function invisibleCharacterIn(text: string): string | null {
    const char = INVISIBLE_CHARACTER.exec(text)?.[0];
    return char === undefined ? null : `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

const LOCAL_FORBIDDEN = /[\s\p{Cc}@,;:<>()[\]\\"]/u;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** Why `address` is not a usable recipient, or null when it is. */
export function emailAddressProblem(address: string): string | null {
    if (typeof address !== 'string' || address === '') return 'empty recipient address';
    if (address.length > 254) return 'recipient address is longer than 254 characters';
    if (PLAIN_ASCII.test(address) && address.indexOf('@') <= 64) return null;
    const invisible = invisibleCharacterIn(address);
    if (invisible) return `the address contains an invisible or formatting character (${invisible}): type it again`;
    if (/[,;]/.test(address)) return 'only one recipient address is allowed';
    if (/[<>]/.test(address)) return 'write the bare address, without a display name or angle brackets';
    const at = address.lastIndexOf('@');
    if (at === -1 || address.indexOf('@') !== at) return "an address needs exactly one '@'";
    const local = address.slice(0, at);
    const domain = address.slice(at + 1);
    if (local === '' || local.length > 64 || LOCAL_FORBIDDEN.test(local)) return 'the part before @ is invalid';
    if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return 'the part before @ is invalid';
    if (domain === 'localhost') return null;
    const labels = domain.split('.');
    if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return 'the domain is invalid';
    if (/^\d+$/.test(labels[labels.length - 1] as string)) return 'the domain is invalid';
    return null;
}

export function isValidEmailAddress(address: string): boolean {
    return emailAddressProblem(address) === null;
}

/**
 * How suppression lists compare addresses: the whole address, trimmed, case-insensitively, in one
 * Unicode form (NFC): `zoë` typed with a composed ë and `zoe` + a combining diaeresis (as some systems
 * export text) are one address to a person, and a list must not tell them apart.
 */
export function suppressionKey(address: string): string {
    return address.trim().toLowerCase().normalize('NFC');
}
