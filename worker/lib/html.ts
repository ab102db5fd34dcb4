/** Text made safe inside HTML, in an element or a quoted attribute: & < > " ' as numeric references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
