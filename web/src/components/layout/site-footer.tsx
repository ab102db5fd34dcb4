import { Link } from '@tanstack/react-router';
import { Logo } from './logo';

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-about">
          <Link to="/" className="logo" aria-label="PhimViet - Trang chủ">
            <Logo />
          </Link>
          <p>
            PhimViet - trang xem phim online miễn phí với kho phim bộ, phim lẻ, TV shows và phim sắp chiếu Vietsub, thuyết minh chất lượng
            cao, cập nhật mỗi ngày. Cài PhimViet lên màn hình chính để xem cả khi mạng chập chờn.
          </p>
        </div>
        <nav aria-label="Thông tin" className="footer-links">
          <ul>
            <li>
              <Link to="/quy-dinh">Quy định</Link>
            </li>
            <li>
              <Link to="/dieu-khoan">Điều khoản sử dụng</Link>
            </li>
            <li>
              <Link to="/bao-mat">Chính sách bảo mật</Link>
            </li>
            <li>
              <Link to="/gioi-thieu">Giới thiệu</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <span className="copyright-badge">© {year} PhimViet</span>
        <span className="muted">Mọi nội dung chỉ dùng để minh hoạ.</span>
      </div>
    </footer>
  );
}
