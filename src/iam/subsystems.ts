/** Names of the subsystems that act on their own (audit entries of system actions name their subsystem). */
export const SUBSYSTEM = { imageWebhook: 'image-update-webhook', controllerWebhook: 'cdcontroller-webhook' } as const;
