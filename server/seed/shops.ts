import type { RarityLevel, StorefrontCategory, StorefrontTheme } from '#domain/enums';

/**
 * The seeded storefronts and their items: names, categories, prices, editions and rarities of the
 * demo world (server/seed/world.ts creates them).
 */

interface ShopSpec {
  name: string;
  vanity: string;
  category: StorefrontCategory;
  theme: StorefrontTheme;
  bio: string;
  creator: [first: string, last: string];
  items: string[];
}

export const shops: ShopSpec[] = [
  {
    name: 'Aria Sounds',
    vanity: 'aria-sounds',
    category: 'music',
    theme: 'dark',
    creator: ['Aria', 'Moreno'],
    bio: 'Limited audio-visual singles and tour keepsakes from an independent synth-pop duo.',
    items: [
      'Midnight Synth',
      'Tour Poster 2026',
      'Backstage Pass',
      'Vinyl Dreams',
      'Encore Loop',
      'Studio Session',
    ],
  },
  {
    name: 'Brush & Pixel',
    vanity: 'brush-pixel',
    category: 'digitalArt',
    theme: 'light',
    creator: ['Noor', 'Haddad'],
    bio: 'Generative abstractions, hand-tuned one palette at a time.',
    items: ['Harbor Lights', 'Quiet Dunes', 'Neon Harbor', 'Chromatic Drift', 'Paper Moons', 'Signal Bloom'],
  },
  {
    name: 'Thread Theory',
    vanity: 'thread-theory',
    category: 'fashion',
    theme: 'light',
    creator: ['Jun', 'Park'],
    bio: 'Wearable digital garments and runway moments from our capsule collections.',
    items: ['Runway Jacket', 'Silk Static', 'Capsule No. 7', 'Denim Ghost', 'Velvet Hour'],
  },
  {
    name: 'Frame Rate',
    vanity: 'frame-rate',
    category: 'filmTv',
    theme: 'dark',
    creator: ['Lena', 'Vogel'],
    bio: 'Stills and loops from festival shorts, signed by their directors.',
    items: ['Opening Credits', 'Director’s Cut', 'Slate 42', 'Final Frame', 'Blooper Reel'],
  },
  {
    name: 'Respawn Vault',
    vanity: 'respawn-vault',
    category: 'gaming',
    theme: 'dark',
    creator: ['Marco', 'Ruiz'],
    bio: 'In-game relics and character art from the Respawn universe.',
    items: [
      'Ember Blade',
      'Pixel Knight',
      'Boss Rush Badge',
      'Speedrun Trophy',
      'Loot Crate Legend',
      'Glitch Shield',
    ],
  },
  {
    name: 'Golden Hour Lab',
    vanity: 'golden-hour-lab',
    category: 'photography',
    theme: 'light',
    creator: ['Sofia', 'Lind'],
    bio: 'Photographs from the coast at the edge of the day, printed once per edition.',
    items: ['Low Tide', 'Salt Road', 'Lighthouse Blue', 'Fog Line', 'Last Ferry'],
  },
  {
    name: 'Courtside Classics',
    vanity: 'courtside-classics',
    category: 'sports',
    theme: 'light',
    creator: ['Andre', 'Wells'],
    bio: 'Highlight moments from the season, licensed by the players who made them.',
    items: ['Buzzer Beater', 'Fast Break', 'Triple Double', 'Home Opener', 'Victory Lap'],
  },
  {
    name: 'Mint Condition Cards',
    vanity: 'mint-condition',
    category: 'tradingCards',
    theme: 'dark',
    creator: ['Ivy', 'Chen'],
    bio: 'Collectible card series with sticker chase cards in every pack.',
    items: [
      'Rookie Card',
      'Holo Dragon',
      'First Edition Fox',
      'Chase Card Comet',
      'Sticker Star',
      'Foil Phoenix',
    ],
  },
  {
    name: 'Parcel Works',
    vanity: 'parcel-works',
    category: 'virtualRealEstate',
    theme: 'light',
    creator: ['Omar', 'Said'],
    bio: 'Plots, plazas and skyline lofts across the Meridian metaverse.',
    items: ['Skyline Loft', 'Plaza Corner', 'Garden Plot', 'Harbor Pier', 'Canal House'],
  },
  {
    name: 'Curio Cabinet',
    vanity: 'curio-cabinet',
    category: 'collectibles',
    theme: 'light',
    creator: ['Edith', 'Blake'],
    bio: 'Tiny oddities, enamel pins and desk companions, in small numbered runs.',
    items: ['Brass Beetle', 'Pocket Compass', 'Enamel Moth', 'Glass Whale', 'Clockwork Bird', 'Tin Robot'],
  },
  {
    name: 'Night Market Beats',
    vanity: 'night-market-beats',
    category: 'music',
    theme: 'light',
    creator: ['Kofi', 'Mensah'],
    bio: 'Lo-fi loops recorded between stalls, one stem per collectible.',
    items: ['Rain on Tin', 'Street Food Groove', 'Lantern Loop', 'Late Bus'],
  },
  {
    name: 'Arcade Atlas',
    vanity: 'arcade-atlas',
    category: 'gaming',
    theme: 'light',
    creator: ['Rita', 'Okafor'],
    bio: 'Maps and mascots from the arcade cabinets we restore.',
    items: ['High Score Map', 'Token Mascot', 'Cabinet 1983', 'Continue Screen', 'Pixel Pier'],
  },
];

export const rarities: RarityLevel[] = ['common', 'uncommon', 'rare', 'ultraRare', 'legendary'];
