/**
 * The QR code page /qrcode (ADR 0015): the business's booking link as a 400x400 QR code, a preview
 * link, the read-only link with Copy, Print and Download ({slug}.png). Other roles see 'Access
 * Denied' (customers are redirected before this).
 */
// Styles of the components only this page uses (loaded with its chunk; see client/mantine-styles.ts).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/Skeleton.css';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  Container,
  Grid,
  Group,
  Image,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { getRouteApi, Navigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { trpc } from '../../lib/trpc';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth/use-auth';
import { FullPageLoader } from '../layout/full-page-loader';
import { LoadError } from '../layout/load-error';
import { bookingLink, copyText, openPrintView, QR_SIZE, qrDataUrl, qrPngBlob, saveBlob } from './qr-image';
import { useAppOrigin } from '../../lib/use-app-origin';

/** 'Access Denied' for a signed-in user whose role may not generate QR codes. */
const route = getRouteApi('/qrcode');

/** The screen at /qrcode: a business sees its QR code; a customer goes to /dashboard; any other role 'Access Denied'. */
export function QrCodeScreen() {
  const { user: fromGuard } = route.useRouteContext();
  const { user: live } = useAuth();
  const role: string = (live ?? fromGuard).role;
  if (role === 'customer') return <Navigate to="/dashboard" replace />;
  if (role !== 'business') return <QrAccessDenied />;
  return <QrCodePage />;
}

export function QrAccessDenied() {
  usePageTitle(MSG.qrAccessDeniedTitle);
  return (
    <Container size="sm" py="xl" px={{ base: 'sm', sm: 'md' }}>
      <Alert color="red" variant="light" title={MSG.qrAccessDeniedTitle} role="alert">
        {MSG.qrAccessDenied}
      </Alert>
    </Container>
  );
}

/** The page for a business: loads its profile (name and slug), then shows the QR tools. */
export function QrCodePage() {
  usePageTitle('QR Code');
  const business = trpc.businesses.mine.useQuery();
  if (business.isPending) return <FullPageLoader label="Loading your QR code..." />;
  if (business.isError) {
    return (
      <LoadError title="Could not load your business" error={business.error} onRetry={() => void business.refetch()} />
    );
  }
  return <QrTools businessName={business.data.businessName} slug={business.data.slug} />;
}

function QrTools({ businessName, slug }: { businessName: string; slug: string }) {
  const link = bookingLink(useAppOrigin(), slug);
  const [image, setImage] = useState<{ link: string; url: string } | null>(null);
  const [imageError, setImageError] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const linkInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    setImageError(false);
    qrDataUrl(link, QR_SIZE).then(
      (url) => live && setImage({ link, url }),
      () => live && setImageError(true),
    );
    return () => {
      live = false;
    };
  }, [link]);
  const imageUrl = image?.link === link ? image.url : null;

  async function onCopy() {
    if (await copyText(link, linkInput.current)) {
      notifications.show({
        color: 'green',
        title: MSG.linkCopiedTitle,
        message: 'Your booking link is on the clipboard.',
      });
    } else {
      notifications.show({
        color: 'red',
        title: 'Copy Failed',
        message: 'Please select the link and copy it yourself.',
      });
    }
  }

  async function onDownload() {
    setDownloading(true);
    try {
      saveBlob(await qrPngBlob(link), `${slug}.png`);
      notifications.show({ color: 'green', title: MSG.qrDownloadedTitle, message: `Saved as ${slug}.png.` });
    } catch {
      notifications.show({
        color: 'red',
        title: MSG.qrDownloadFailedTitle,
        message: 'The QR code image could not be created. Please try again.',
      });
    } finally {
      setDownloading(false);
    }
  }

  function onPrint() {
    if (!imageUrl || !openPrintView({ businessName, link, imageUrl })) {
      notifications.show({
        color: 'red',
        title: MSG.qrPrintFailedTitle,
        message:
          'The print window was blocked. Please allow pop-ups for this site in your browser settings and try again.',
      });
    }
  }

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="lg">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            QR Code
          </Title>
          <Text c="dimmed" size="sm">
            Put it on your counter, window or flyers: customers scan it to open your booking page.
          </Text>
        </div>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Card withBorder padding="lg" h="100%">
              <Center>
                {imageUrl ? (
                  <Image
                    src={imageUrl}
                    alt={`QR code for ${link}`}
                    w={QR_SIZE}
                    h="auto"
                    maw="100%"
                    style={{ aspectRatio: '1 / 1', imageRendering: 'pixelated' }}
                    data-testid="qr-image"
                  />
                ) : imageError ? (
                  <Alert color="red" title="QR code unavailable" role="alert" w="100%">
                    The QR code could not be drawn. Please reload the page.
                  </Alert>
                ) : (
                  <Skeleton w={QR_SIZE} maw="100%" style={{ aspectRatio: '1 / 1' }} h="auto" />
                )}
              </Center>
              <Text ta="center" fw={600} mt="md" style={{ overflowWrap: 'anywhere' }}>
                {businessName}
              </Text>
              <Text ta="center" size="sm" c="dimmed">
                {MSG.qrScanToBook}
              </Text>
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Card withBorder padding="lg" h="100%">
              <Stack gap="md">
                <div>
                  <Title order={2} fz="lg">
                    Your booking link
                  </Title>
                  <Text size="sm" c="dimmed">
                    The QR code opens this page. You can also share the link itself.
                  </Text>
                </div>
                <Group gap="xs" align="flex-end" wrap="nowrap">
                  <TextInput
                    ref={linkInput}
                    label="Booking link"
                    value={link}
                    readOnly
                    onFocus={(e) => e.currentTarget.select()}
                    style={{ flex: 1, minWidth: 0 }}
                  />
                  <Button variant="default" onClick={() => void onCopy()}>
                    Copy
                  </Button>
                </Group>
                <Anchor href={`/${slug}`} target="_blank" rel="noopener" size="sm" fw={600}>
                  Preview your booking page ↗
                </Anchor>
                <Stack gap="xs" mt="sm">
                  <Button onClick={() => void onDownload()} loading={downloading} disabled={!imageUrl}>
                    Download QR Code
                  </Button>
                  <Button variant="light" onClick={onPrint} disabled={!imageUrl}>
                    Print QR Code
                  </Button>
                </Stack>
                <Text size="xs" c="dimmed">
                  The download is a {`${slug}.png`} image, large enough for posters. Printing opens a page with your
                  business name, the code and the link.
                </Text>
              </Stack>
            </Card>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
