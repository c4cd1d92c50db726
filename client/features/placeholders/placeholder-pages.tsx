import { ComingSoon } from '../../components/ui/page-header';

export const TrendingPage = () => <ComingSoon title="Trending" />;
