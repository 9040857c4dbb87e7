import type { FastifyPluginAsync } from 'fastify';
import type { Services } from '../../../service/index.js';

export const diagramPages: FastifyPluginAsync<{ services: Services }> = async () => {};
