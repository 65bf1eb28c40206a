/**
 * PO boxes in an address line (spec §2.3 Address "line1": no PO box addresses). The forms are those of
 * DESIGN §5, plus the designators USPS rewrites to PO BOX (Caller, Drawer, Lockbox). A bare "Box" is a
 * PO box only when a number follows, so streets such as Boxwood Lane or Box Elder Street pass.
 */
const poBoxForms: readonly RegExp[] = [
  // P.O. Box, PO Box, P O Box, PO-Box, POBOX, P0 Box, p/o box, PO. Box
  /\bp\s*[./]?\s*[o0]\s*\.?\s*-?\s*box\b/i,
  // Post Office Box, Post Box, Postbox 12
  /\bpost\s+(office\s+)?box\b/i,
  /\bpostbox\s*#?\s*\d/i,
  // P.O.B. 12, POB 12
  /\bp\s*\.?\s*o\s*\.?\s*b\b\.?\s*#?\s*\d/i,
  // Box #123, Box No. 9, Caller 4521, Drawer 20, Lockbox 330, Lock Box 45
  /\b(box|caller|drawer|lock\s*box)\s*(#|no\.?|number)?\s*\d/i,
];

// White space squeezed first (in linear time): runs of it between the optional separators above would make the
// forms backtrack for minutes on a line of a few kilobytes ("p", 1,200 spaces, "o", 1,200 spaces, "x").
export const isPoBox = (line: string): boolean => {
  const squeezed = line.replace(/\s+/g, ' ');
  return poBoxForms.some((form) => form.test(squeezed));
};
