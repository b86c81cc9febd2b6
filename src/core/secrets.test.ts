import { describe, expect, it } from 'vitest';
import { SECRET_MASK, maskConnection, mergeConnection } from './secrets.ts';

const connection = {
  config: {
    type: 'S3',
    awsConfig: { awsRegion: 'eu-west-1', awsAccessKeyId: 'AKIA1', awsSecretAccessKey: 's3cr3t', sessionToken: 'tok' },
    gcpCredentials: { privateKey: 'pk', projectId: 'p' },
  },
};

describe('connection secrets (contract "Storage service")', () => {
  it('masks secret values and leaves the rest, sets enabled false on credentials objects', () => {
    const masked = maskConnection(connection) as typeof connection & { config: { gcpCredentials: Record<string, unknown> } };
    expect(masked.config.awsConfig).toEqual({ awsRegion: 'eu-west-1', awsAccessKeyId: 'AKIA1', awsSecretAccessKey: SECRET_MASK, sessionToken: SECRET_MASK });
    expect(masked.config.gcpCredentials).toEqual({ privateKey: SECRET_MASK, projectId: 'p', enabled: false });
    expect(connection.config.awsConfig.awsSecretAccessKey).toBe('s3cr3t');
  });
  it('keeps the stored secret when a client sends the mask back', () => {
    const merged = mergeConnection(connection, maskConnection(connection)) as typeof connection;
    expect(merged.config.awsConfig.awsSecretAccessKey).toBe('s3cr3t');
    const changed = mergeConnection(connection, {
      config: { ...connection.config, awsConfig: { ...connection.config.awsConfig, awsSecretAccessKey: 'new' } },
    }) as typeof connection;
    expect(changed.config.awsConfig.awsSecretAccessKey).toBe('new');
  });
});
