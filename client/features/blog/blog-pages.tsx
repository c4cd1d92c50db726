import { ComingSoon } from '../../components/ui/page-header';

export const BlogPage = () => <ComingSoon title="Blog" />;
export const BlogPostPage = () => <ComingSoon title="Blog post" />;
