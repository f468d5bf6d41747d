// The webhooks area's public face: its routes (endpoints; delivery history, replay, publishing) and
// the two queue workers a runtime attaches to the events and deliveries queues.
export { WEBHOOK_ROUTES } from './api/routes';
export { DELIVERY_ROUTES } from './api/delivery-routes';
export { create as createFanOutWorker } from './api/handlers/fan-out';
export { create as createDeliveryWorker, deliveryWorker } from './api/handlers/deliver';
