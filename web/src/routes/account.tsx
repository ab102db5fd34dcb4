import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { AccountPage } from '../features/auth/components/account-page';
import { HiddenAuthorsSection } from '../features/comments/components/hidden-authors-section';
import { PushSwitch } from '../features/library/components/push-switch';
import { VipAccountSection } from '../features/vip/components/vip-account-section';
import { DeleteAccountSection } from '../features/account-data/components/delete-account';
import { DownloadDataSection } from '../features/account-data/components/download-data';

export const Route = createFileRoute('/account')({
  beforeLoad: ({ context, location }) => {
    if (!context.auth) throw redirect({ to: '/dang-nhap', search: { redirect: location.href }, replace: true });
  },
  component: function AccountRoute() {
    return (
      <>
        <AccountPage />
        <VipAccountSection />
        <HiddenAuthorsSection />
        <section className="container" aria-label="Thông báo">
          <PushSwitch />
        </section>
        <section className="container account-downloads" aria-label="Phim đã tải">
          <p>
            Các tập đã tải về máy này để xem khi không có mạng: <Link to="/tai-ve">Phim đã tải</Link>
          </p>
        </section>
        <div className="container">
          <DownloadDataSection />
          <DeleteAccountSection back="/account" />
        </div>
      </>
    );
  },
});
