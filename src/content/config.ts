import type { Faker } from '@faker-js/faker'
import { LAYOUTS, type ProjectConfig } from '../schemas/index.js'

const FONTS = ['Inter', 'Source Sans 3', 'IBM Plex Sans', 'Nunito', 'Work Sans', 'Manrope']

function hex(faker: Faker): string {
  return faker.color.rgb({ format: 'hex', casing: 'lower' })
}

/** A seeded, valid project configuration with a theme and a small design system. */
export function generateConfig(faker: Faker): ProjectConfig {
  const font = faker.helpers.arrayElement(FONTS)
  const primary = hex(faker)
  const colors = {
    background: '#ffffff',
    foreground: '#0f172a',
    card: '#f8fafc',
    'card-foreground': '#0f172a',
    primary,
    'primary-foreground': '#ffffff',
    secondary: '#e2e8f0',
    'secondary-foreground': '#0f172a',
    muted: '#f1f5f9',
    'muted-foreground': '#64748b',
    accent: hex(faker),
    'accent-foreground': '#0f172a',
    destructive: '#dc2626',
    'destructive-foreground': '#ffffff',
    border: '#e2e8f0',
    input: '#e2e8f0',
  }
  // Drawn in this order (the seeded content depends on it); stored in the
  // schema's key order, so the world built here is byte for byte the one a
  // state document of it loads back.
  const layout = faker.helpers.arrayElement(LAYOUTS)
  const width = faker.helpers.arrayElement(['FULL', 'MEDIUM', 'COMPACT'] as const)
  const showBrandLogo = faker.datatype.boolean()
  return {
    layout,
    showBrandLogo,
    width,
    theme: {
      fontFamily: font,
      radius: faker.helpers.arrayElement(['0rem', '0.25rem', '0.5rem', '1rem']),
      colors: { default: colors },
    },
    tokens: {
      palette: [
        { name: '--brand', value: primary },
        { name: '--brand-accent', value: colors.accent },
      ],
      fonts: [{ name: '--font-body', family: font }],
    },
  }
}
