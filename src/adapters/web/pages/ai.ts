import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../../service/index.js';

export const aiPages: FastifyPluginAsync<{ services: Services }> = async () => {};
