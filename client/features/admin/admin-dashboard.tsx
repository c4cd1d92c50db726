import { ComingSoon } from '../../components/ui/page-header';

export const AdminDashboard = () => <ComingSoon title="Admin Dashboard" />;
