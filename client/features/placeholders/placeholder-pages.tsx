import { ComingSoon } from '../../components/ui/page-header';

export const DiscussionsPage = () => <ComingSoon title="Discussions" />;
export const TrendingPage = () => <ComingSoon title="Trending" />;
