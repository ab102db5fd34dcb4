import { createFileRoute, Link } from '@tanstack/react-router';
import { DeleteAccountSection } from '../features/account-data/components/delete-account';
import { useSession } from '../lib/session';

/** "Xóa tài khoản", public (app stores ask for a web link): signed out, it asks the member to sign in (issue 39 §1). */
export const Route = createFileRoute('/xoa-tai-khoan')({
  component: function DeleteAccountRoute() {
    const session = useSession();
    return (
      <div className="container account-page">
        <h1 className="page-heading">Xóa tài khoản</h1>
        {session ? (
          <DeleteAccountSection back="/xoa-tai-khoan" />
        ) : (
          <section className="auth-card account-card" data-testid="delete-signed-out">
            <p>
              Để xóa tài khoản hoặc khôi phục tài khoản đang chờ xóa, hãy đăng nhập bằng mật khẩu, khóa truy cập hoặc Google. Mọi thiết bị
              sẽ được đăng xuất và tài khoản bị xóa sau 7 ngày; đơn hàng được giữ lại không kèm thông tin cá nhân theo luật kế toán.
            </p>
            <Link to="/dang-nhap" search={{ redirect: '/xoa-tai-khoan' }} className="btn btn-primary">
              Đăng nhập để tiếp tục
            </Link>
          </section>
        )}
      </div>
    );
  },
});
