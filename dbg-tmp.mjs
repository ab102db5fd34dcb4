import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
const ctx = await browser.newContext({
  baseURL: 'http://localhost:8934',
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  locale: 'vi-VN',
});
const page = await ctx.newPage();
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message));
page.on('response', (r) => {
  if (r.url().includes('/api/')) console.log('resp', r.status(), r.url());
});
const cdp = await ctx.newCDPSession(page);
await cdp.send('WebAuthn.enable');
await cdp.send('WebAuthn.addVirtualAuthenticator', {
  options: {
    protocol: 'ctap2',
    transport: 'internal',
    hasResidentKey: true,
    hasUserVerification: true,
    isUserVerified: true,
    automaticPresenceSimulation: true,
  },
});
const email = `dbg-${Date.now()}@example.com`;
await fetch('http://localhost:8934/api/dang-ky', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, name: 'Dbg', password: 'mat-khau-123' }),
});
await page.goto('/dang-nhap');
await page.waitForFunction(() => 'appReady' in document.documentElement.dataset);
await page.getByLabel('Email').fill(email);
await page.getByLabel('Mật khẩu').fill('mat-khau-123');
await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
await page.waitForURL((u) => u.pathname === '/');
await page.goto('/account');
await page.waitForFunction(() => 'appReady' in document.documentElement.dataset);
await page.getByRole('button', { name: 'Thêm khóa đăng nhập' }).click();
await page.getByTestId('passkey').waitFor();
await page.screenshot({ path: '/tmp/pv34/account.png', fullPage: true });
await page.evaluate(() => sessionStorage.clear());
await page.goto('/dang-nhap');
await page.waitForFunction(() => 'appReady' in document.documentElement.dataset);
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/pv34/login2.png' });
console.log('buttons', await page.getByRole('button').allInnerTexts());
await browser.close();
