import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { classifySlugPath } from '../../shared/reserved-slugs';
import { PublicBusinessScreen } from '../features/public-page/public-business-page';

/**
 * /{slug}: the public business page. A single path segment that a slug could be (3-50 lowercase
 * letters, digits, hyphens) or a reserved word shows the page, which says 'Business Not Found' when
 * no business has it; a slug typed with capitals goes to its lower-case address; anything else is
 * the 404 page (ADR 0020). The product's own routes are static and matched before this one.
 */
export const Route = createFileRoute('/$slug')({
  beforeLoad: ({ params }) => {
    const path = classifySlugPath(params.slug);
    if (path.kind === 'not-found') throw notFound();
    if (path.kind === 'redirect') throw redirect({ to: '/$slug', params: { slug: path.to }, replace: true });
  },
  component: PublicBusinessScreen,
});
