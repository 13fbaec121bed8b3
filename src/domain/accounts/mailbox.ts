// Which addresses reach one mailbox, as far as a starting grant is concerned: an address and its
// variants that a person can create at will — another case, a trailing dot after the domain, a
// +tag, characters of another script that look the same — fold to one key.
import { domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';

/** Zero-width and other invisible characters: they make a distinct string of the same address. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The Unicode TR39 skeleton (NFD, each character replaced by its prototype in the Unicode confusables data —
 * unhomoglyph ships it —, NFD again), lower-cased on both sides because the prototypes keep case ("O" for "0").
 */
function skeleton(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().replace(INVISIBLE, '').normalize('NFD');
  return unhomoglyph(folded).toLowerCase().normalize('NFD');
}

/** The mailbox an address reaches: one key for x@example.com, X+promo@Example.com., and "х" in Cyrillic. */
export function mailboxKey(email: string): string {
  const address = email.trim();
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at).split('+')[0]!;
  // A punycode domain (xn--…) is compared in the script it stands for.
  const domain = address.slice(at + 1).replace(/\.+$/, '');
  return `${skeleton(local)}@${skeleton(domainToUnicode(domain.toLowerCase()) || domain)}`;
}
