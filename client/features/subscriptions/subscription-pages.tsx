import { ComingSoon } from '../../components/ui/page-header';

export const SubscriptionSettingsPage = () => <ComingSoon title="Subscription Settings" />;
export const UnsubscribePage = () => <ComingSoon title="Unsubscribe" />;
