import { ComingSoon } from '../../components/ui/page-header';

export const MonitoringPage = () => <ComingSoon title="Monitoring" />;
