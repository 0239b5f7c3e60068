/** SQLite side of migration 15: device record channels and terminal audio/video attributes. */
import type { ChannelRepository, RecordedChannel, StoredAvAttributes } from '../channel-types.ts';
import type { SqliteDb } from '../sqlite.ts';

interface AttributesRowDb {
  vehicle_id: number; audio_encoding: number; audio_channels: number; sampling_rate: number; sampling_bits: number;
  audio_frame_length: number; audio_output: number; video_encoding: number; max_audio_channels: number; max_video_channels: number;
  reported_time: number;
}

export class SqliteChannelRepository implements ChannelRepository {
  constructor(private readonly db: SqliteDb) {}

  async recorded(vehicleId: number): Promise<RecordedChannel[]> {
    return this.db.prepare('SELECT channel, kind, name FROM device_channel WHERE vehicle_id = ? ORDER BY channel').all(vehicleId) as RecordedChannel[];
  }

  async setRecorded(vehicleId: number, channels: readonly RecordedChannel[]): Promise<void> {
    const insert = this.db.prepare('INSERT INTO device_channel (vehicle_id, channel, kind, name) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM device_channel WHERE vehicle_id = ?').run(vehicleId);
      for (const c of channels) insert.run(vehicleId, c.channel, c.kind, c.name);
    })();
  }

  async attributes(vehicleId: number): Promise<StoredAvAttributes | undefined> {
    const r = this.db.prepare('SELECT * FROM terminal_av_attributes WHERE vehicle_id = ?').get(vehicleId) as AttributesRowDb | undefined;
    return r && {
      vehicleId: r.vehicle_id, audioEncoding: r.audio_encoding, audioChannels: r.audio_channels, samplingRate: r.sampling_rate,
      samplingBits: r.sampling_bits, audioFrameLength: r.audio_frame_length, audioOutput: r.audio_output === 1, videoEncoding: r.video_encoding,
      maxAudioChannels: r.max_audio_channels, maxVideoChannels: r.max_video_channels, reportedTime: r.reported_time,
    };
  }

  async saveAttributes(a: StoredAvAttributes): Promise<void> {
    // A vehicle deleted since the answer arrived is skipped instead of failing on its foreign key.
    this.db.prepare(`INSERT OR REPLACE INTO terminal_av_attributes
      (vehicle_id, audio_encoding, audio_channels, sampling_rate, sampling_bits, audio_frame_length, audio_output, video_encoding,
       max_audio_channels, max_video_channels, reported_time)
      SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM vehicle WHERE id = ?)`).run(
      a.vehicleId, a.audioEncoding, a.audioChannels, a.samplingRate, a.samplingBits, a.audioFrameLength, a.audioOutput ? 1 : 0, a.videoEncoding,
      a.maxAudioChannels, a.maxVideoChannels, a.reportedTime, a.vehicleId);
  }
}
