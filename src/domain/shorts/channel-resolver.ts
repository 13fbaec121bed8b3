// Channel address → channel resource, through a chain of strategies tried in order, cheapest first.
// Each strategy's unit cost is stated so that docs/quota.md and the meter agree:
//
//   address form        strategy                         units
//   /channel/UC…        channels.list?id                 1   (also returns the channel)
//   /@handle            channels.list?forHandle          1   (also returns the channel)
//   /user/name          channels.list?forUsername        1   (also returns the channel)
//   /c/name, /name      1. channels.list?forHandle=name  1   (most custom URLs became handles)
//                       2. channels.list?forUsername     1   (legacy custom names often equal it)
//                       3. search.list + channels.list   101 (last resort; unpaid, so only when the
//                                                            account's allowance still covers it)
//
// A 0-unit resolver (InnerTube resolve_url) slots in as the first strategy of every chain.
import { AppError } from '../../errors.ts';
import type { ChannelRef } from './channel-url.ts';
import { QUOTA_COST, type YoutubeCalls } from './youtube-client.ts';
import type { YtChannel } from './youtube-types.ts';

export interface ResolveContext {
  calls: YoutubeCalls;
  /** Whether `units` more may be spent before the price is known (the allowance covers them). */
  canSpendUnpaid(units: number): Promise<boolean>;
}

export interface ResolverStrategy {
  name: string;
  units: number;
  applies(ref: ChannelRef): boolean;
  resolve(ref: ChannelRef, context: ResolveContext): Promise<YtChannel | undefined>;
}

const first = async (context: ResolveContext, params: Record<string, string>) =>
  (await context.calls.channels(params)).items?.[0];

export const DATA_API_STRATEGIES: ResolverStrategy[] = [
  {
    name: 'channels.list?id',
    units: QUOTA_COST.channels,
    applies: (ref) => ref.type === 'id',
    resolve: (ref, c) => first(c, { id: ref.value }),
  },
  {
    name: 'channels.list?forHandle',
    units: QUOTA_COST.channels,
    applies: (ref) => ref.type === 'handle' || ref.type === 'custom',
    resolve: (ref, c) => first(c, { forHandle: ref.value }),
  },
  {
    name: 'channels.list?forUsername',
    units: QUOTA_COST.channels,
    applies: (ref) => ref.type === 'username' || ref.type === 'custom',
    resolve: (ref, c) => first(c, { forUsername: ref.value }),
  },
  {
    name: 'search.list',
    units: QUOTA_COST.search + QUOTA_COST.channels,
    applies: (ref) => ref.type === 'custom',
    async resolve(ref, c) {
      if (!(await c.canSpendUnpaid(this.units))) throw new SearchUnaffordable();
      const ids = ((await c.calls.searchChannels(ref.value)).items ?? [])
        .map((i) => i.id?.channelId)
        .filter((id): id is string => !!id);
      if (ids.length === 0) return undefined;
      const wanted = ref.value.toLowerCase();
      const candidates = (await c.calls.channels({ id: ids.join(',') })).items ?? [];
      return candidates.find((ch) => {
        const custom = ch.snippet?.customUrl?.toLowerCase();
        return custom === wanted || custom === `@${wanted}`;
      });
    },
  },
];

/** The last strategy was too dear for the account's allowance: not a proof that nothing exists. */
export class SearchUnaffordable extends Error {}

export async function resolveChannel(
  ref: ChannelRef,
  context: ResolveContext,
  strategies: ResolverStrategy[] = DATA_API_STRATEGIES,
): Promise<YtChannel> {
  for (const strategy of strategies) {
    if (!strategy.applies(ref)) continue;
    let found: YtChannel | undefined;
    try {
      found = await strategy.resolve(ref, context);
    } catch (error) {
      if (error instanceof SearchUnaffordable) {
        throw new AppError(
          'CHANNEL_NOT_FOUND',
          `No channel was found for ${describe(ref)} as a handle or legacy username. The remaining strategy, a ` +
            `search (${strategy.units} units), is beyond this account's remaining allowance of unpaid lookups ` +
            "today; use the channel's /@handle or /channel/UC… address.",
          { cause: error },
        );
      }
      throw error;
    }
    if (found) return found;
  }
  throw new AppError('CHANNEL_NOT_FOUND', `No channel exists at that address (${describe(ref)}).`);
}

export function describe(ref: ChannelRef): string {
  switch (ref.type) {
    case 'id':
      return `channel id ${ref.value}`;
    case 'handle':
      return `handle @${ref.value}`;
    case 'username':
      return `username ${ref.value}`;
    case 'custom':
      return `custom name ${ref.value}`;
  }
}
