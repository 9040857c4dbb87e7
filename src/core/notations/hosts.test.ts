import { describe, expect, it } from 'vitest';
import { hostsIn } from './hosts.js';

describe('hostsIn', () => {
  it('reads the host of a JDBC URL from the driver URL it wraps, properties after a ; aside', () => {
    // Spring apps' SPRING_DATASOURCE_URL: read as `tcp://jdbc:…`, the host was "jdbc" and the database stood alone.
    expect(hostsIn('jdbc:postgresql://ledger-db:5432/postgresdb')).toEqual(['ledger-db']);
    expect(hostsIn('jdbc:mysql://user:secret@catalogue-db:3306/socksdb?useSSL=false')).toEqual(['catalogue-db']);
    expect(hostsIn('jdbc:sqlserver://mssql:1433;databaseName=orders;encrypt=false')).toEqual(['mssql']);
  });

  it('reads URLs, host:port lists and bare names as before', () => {
    expect(hostsIn('amqp://guest:guest@rabbitmq:5672')).toEqual(['rabbitmq']);
    expect(hostsIn('kafka-0.kafka:9092,kafka-1.kafka:9092')).toEqual(['kafka-0', 'kafka-1']);
    expect(hostsIn('{{ .Release.Name }}-redis')).toEqual(['redis']);
  });

  it('reads the host in the format of a printf template (immich-app/immich-charts values)', () => {
    // The whole template was dropped as an expression, and the server's call to machine learning with it.
    expect(hostsIn('{{ printf "http://%s-machine-learning:3003" .Release.Name }}')).toEqual(['machine-learning']);
    expect(hostsIn('{{ printf "%s-valkey" .Release.Name }}')).toEqual(['valkey']);
  });
});
