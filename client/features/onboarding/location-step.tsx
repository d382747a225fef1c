/**
 * Onboarding's location step (docs/decisions/0085): once a business profile is completed, the
 * owner's first dashboard on that device opens with the Location card, worded as a question, until
 * they press 'Done'. The address given at sign-up is already being looked up, so the card usually
 * shows it placed (or being placed) and the owner only checks the pin.
 */
import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { useAuth } from '../auth/use-auth';
import { LocationCard } from '../settings/location-card';

const STEP_KEY = 'lastslot.onboarding.location';

/** Remembers on this device that the business of `email` has the location step to do (ignored when storage is unavailable). */
export function rememberLocationStep(email: string): void {
  try {
    window.localStorage.setItem(STEP_KEY, email.toLowerCase());
  } catch {
    // Private mode or storage full: the step is skipped; Settings has the same card.
  }
}

/** Whether the business of `email` has the location step to do on this device. */
function locationStepDue(email: string): boolean {
  try {
    return window.localStorage.getItem(STEP_KEY) === email.toLowerCase();
  } catch {
    return false;
  }
}

function finishLocationStep(): void {
  try {
    window.localStorage.removeItem(STEP_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** The location step at the top of the business dashboard, or nothing when it is not due (read after hydration). */
export function LocationStep() {
  const hydrated = useHydrated();
  const { user } = useAuth();
  const [finished, setFinished] = useState(false);
  if (!hydrated || finished || !user || !locationStepDue(user.email)) return null;
  return (
    <LocationCard
      title="Where is your business?"
      intro="Customers find your slots in Discover by where you are. We look up the address you gave for you: check the result below, then move the pin to your door or use your current location if you're there now. You can change this any time in Settings."
      footer={
        <Group justify="flex-end">
          <Button
            onClick={() => {
              finishLocationStep();
              setFinished(true);
            }}
          >
            Done
          </Button>
        </Group>
      }
    />
  );
}
