/**
 * The back office's one stylesheet, served from our own origin (the CSP allows nothing else).
 * Small enough to keep here rather than ship a CSS framework; no build step.
 */
export const DASHBOARD_CSS = `
:root { color-scheme: light dark; --fg: #1b1f23; --muted: #666; --line: #d0d7de; --accent: #0b63c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --muted: #9a9a9a; --line: #3a3f45; --accent: #6cb0ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); }
header { display: flex; justify-content: space-between; align-items: center; gap: 1rem;
  padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header nav a { margin-right: .8rem; }
a { color: var(--accent); }
main { max-width: 70rem; padding: 1rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
table { border-collapse: collapse; margin: .4rem 0 1rem; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
table.facts th { color: var(--muted); font-weight: normal; }
form { margin: .5rem 0 1rem; }
form.logout { display: flex; gap: .6rem; align-items: center; margin: 0; }
.who { color: var(--muted); }
input { font: inherit; padding: .25rem .4rem; }
button { font: inherit; padding: .3rem .9rem; cursor: pointer; }
.notice { padding: .5rem .8rem; border-left: 4px solid var(--accent); }
.notice.error { border-color: #c62828; }
.empty { color: var(--muted); }
.amount { text-align: right; font-variant-numeric: tabular-nums; }
form.search { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .5rem .8rem; align-items: end; }
form.search label { display: flex; flex-direction: column; gap: .15rem; color: var(--muted); }
form.search input, form.search select { color: var(--fg); }
`;
