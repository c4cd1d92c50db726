import { ComingSoon } from '../../components/ui/page-header';

export const EmbedPage = () => (
  <div className="p-4">
    <ComingSoon title="Community widget" />
  </div>
);
