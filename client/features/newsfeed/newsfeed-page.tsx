import { ComingSoon } from '../../components/ui/page-header';

export const NewsfeedPage = () => <ComingSoon title="Broadcast History Newsfeed" />;
