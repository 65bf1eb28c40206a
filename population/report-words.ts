/** How the population report writes its numbers, in the page and on the console. */
export const number = (n: number) => n.toLocaleString('en-US');
export const percent = (share: number) => (share > 0 && share < 0.0005 ? '<0.1%' : `${(share * 100).toFixed(1)}%`);
export const plural = (n: number, one: string, many = `${one}s`) => `${number(n)} ${n === 1 ? one : many}`;
export const signed = (n: number) => (n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : '±0');
export const widthOf = (part: number, whole: number) => `width:${whole > 0 ? ((part / whole) * 100).toFixed(2) : 0}%`;
