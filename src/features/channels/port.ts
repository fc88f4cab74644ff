/** The Channels port: the part of ChannelsClient the Channels view and its commands use (fakes implement exactly this). */
import type { ChannelsClient } from '../../api/channels';

export type ChannelsApi = Pick<ChannelsClient,
  | 'watchDriveFile' | 'watchDriveChanges' | 'stopDriveChannel'
  | 'watchCalendarEvents' | 'watchCalendarAcl' | 'watchCalendarList' | 'watchCalendarSettings' | 'stopCalendarChannel'
  | 'watchDirectoryUsers' | 'stopDirectoryChannel'>;
