/** What certification.html, the fleet overview and population.html share of their inline stylesheets: colours, type, tables. */
export const baseStyle = `
:root{--fail:#b3261e;--warn:#8a5a00;--pass:#1e6b34;--muted:#5f6368;--line:#dadce0;--waive:#5b3fa0}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;color:#202124;margin:0 auto;max-width:72rem;padding:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
table{border-collapse:collapse;width:100%;margin:.25rem 0 1rem}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}th{font-weight:600;background:#f8f9fa}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}.muted{color:var(--muted)}
`;
