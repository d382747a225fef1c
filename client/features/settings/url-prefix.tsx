import { Box, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Props for a Mantine text input that shows a fixed address prefix (e.g. 'lastslot.app/') joined
 * to its left edge, at most `maxWidth` of the field and shortened with an ellipsis beyond.
 */
export function urlPrefixProps(prefix: string, maxWidth = '45%') {
  return {
    inputContainer: (input: ReactNode) => (
      <Group gap={0} wrap="nowrap" align="stretch">
        <Box
          px="sm"
          title={prefix}
          style={{
            display: 'flex',
            alignItems: 'center',
            border: '1px solid var(--mantine-color-gray-4)',
            borderRight: 0,
            borderRadius: 'var(--mantine-radius-md) 0 0 var(--mantine-radius-md)',
            background: 'var(--mantine-color-gray-0)',
            color: 'var(--mantine-color-gray-7)',
            fontSize: 'var(--mantine-font-size-sm)',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            maxWidth,
            flexShrink: 1,
          }}
        >
          {prefix}
        </Box>
        <Box style={{ flex: 1, minWidth: 0 }}>{input}</Box>
      </Group>
    ),
    styles: { input: { borderTopLeftRadius: 0, borderBottomLeftRadius: 0 } },
  };
}
