/** Whether a link the operator typed is an http(s) URL (the API refuses anything else). */
export const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};
