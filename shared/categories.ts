/** Business categories, parent then children. Default: Hair Salon. */
export const CATEGORY_GROUPS: ReadonlyArray<{ group: string; items: readonly string[] }> = [
  {
    group: 'Hair Services',
    items: ['Hair Salon', 'Barber Shop', 'Hair Colourist', 'Hair Extension Specialist', 'Bridal Hair Specialist'],
  },
  {
    group: 'Beauty & Skincare',
    items: [
      'Beauty Salon',
      'Facialist',
      'Aesthetician',
      'Waxing & Hair Removal Specialist',
      'Eyelash & Eyebrow Specialist',
      'Makeup Artist',
      'Spray Tanning Studio',
    ],
  },
  { group: 'Nails', items: ['Nail Salon', 'Manicurist / Pedicurist'] },
  {
    group: 'Massage & Bodywork',
    items: [
      'Massage Therapist',
      'Sports Massage Therapist',
      'Deep Tissue Massage Therapist',
      'Relaxation Massage Therapist',
      'Reflexologist',
      'Aromatherapy Specialist',
    ],
  },
  {
    group: 'Aesthetic & Medical Spa',
    items: [
      'Medical Aesthetics Clinic',
      'MedSpa',
      'Cosmetic Injectables',
      'Laser Treatments',
      'Advanced Facials',
      'Body Contouring Specialist',
    ],
  },
  {
    group: 'Wellness & Holistic Health',
    items: [
      'Chiropractor',
      'Physiotherapist',
      'Acupuncturist',
      'Nutritionist / Dietitian',
      'Reiki Practitioner',
      'Shiatsu Specialist',
      'Hypnotherapist',
      'Counsellor / Therapist',
    ],
  },
  { group: 'Fitness & Coaching', items: ['Personal Trainer', 'Pilates Instructor', 'Yoga Instructor', 'Life Coach'] },
  { group: 'Specialty Arts', items: ['Tattoo Artist', 'Piercing Studio'] },
];

export const DEFAULT_CATEGORY = 'Hair Salon';
export const ALL_CATEGORIES: readonly string[] = CATEGORY_GROUPS.flatMap((g) => g.items);

/** Display label of a stored business_type: the text after '|', else the whole value. */
export function businessTypeLabel(stored: string | null | undefined): string {
  if (!stored) return '';
  const i = stored.indexOf('|');
  return (i >= 0 ? stored.slice(i + 1) : stored).trim();
}
