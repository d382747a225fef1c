import { createFileRoute } from '@tanstack/react-router';
import { PublicBusinessPage } from '../features/public-page/public-business-page';

export const Route = createFileRoute('/$slug')({
  component: SlugPage,
});

function SlugPage() {
  const { slug } = Route.useParams();
  return <PublicBusinessPage slug={slug} />;
}
