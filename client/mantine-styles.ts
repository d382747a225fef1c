/**
 * Mantine styles of the first load, per component rather than the whole 250 kB styles.css: the
 * page frame, the landing page, the public business page and Discover. Order matters: baseline and
 * variables first. A component used only by lazily loaded screens or dialogs (inputs, Select,
 * Modal, Tabs, Switch, ...) is not listed here: the module that uses it imports its stylesheets,
 * so they load with that screen's chunk and stay out of the render-blocking CSS (ADR 0055).
 * mantine-styles.test.ts checks that every Mantine component in client/ has its stylesheets.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';

import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/ThemeIcon.css';
// The Discover page is rendered on the server and painted before its script runs: its chips and
// fields are styled from the first load, not from its lazily loaded chunk.
import '@mantine/core/styles/Chip.css';
import '@mantine/core/styles/Input.css';
