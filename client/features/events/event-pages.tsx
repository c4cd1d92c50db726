import { ComingSoon } from '../../components/ui/page-header';

export const CalendarPage = () => <ComingSoon title="Events & Calendar" />;
export const EventManagementPage = () => <ComingSoon title="Event Management" />;
