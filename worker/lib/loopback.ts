/** A host on this machine (localhost, ::1, 127.x): the local mail catcher's certificate is accepted there, and passkeys use `localhost`. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
