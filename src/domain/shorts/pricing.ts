// Default price: 1 credit per started block of 50 shorts returned, at least 1 credit per call.
export interface PriceSettings {
  creditsPerBlock: number;
  shortsPerBlock: number;
  minimumCredits: number;
}

export function priceFor(itemCount: number, settings: PriceSettings): number {
  return Math.max(settings.minimumCredits, Math.ceil(itemCount / settings.shortsPerBlock) * settings.creditsPerBlock);
}
