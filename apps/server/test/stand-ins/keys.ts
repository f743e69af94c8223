// The keys and ids the provider stand-ins accept; anything else is refused the way the real
// provider refuses it.
export const STAND_IN_KEYS = {
  openai: 'sk-standin-openai-0123456789abcdef',
  gemini: 'AIzaStandIn-gemini-0123456789',
  deepgram: 'dg-standin-deepgram-0123456789',
  azure: 'az-standin-azure-0123456789abcdef',
  pollyAccessKey: 'AKIASTANDIN01234567',
  pollySecretKey: 'standin/polly/secret/0123456789abcdefghij',
  elevenlabs: 'sk_standin_elevenlabs_0123456789',
  cartesia: 'sk_car_standin_0123456789abcdef',
  neuphonic: 'np-standin-neuphonic-0123456789',
} as const;

export const STAND_IN_AGENTS = {
  public: 'agent_public_0123456789',
  private: 'agent_private_0123456789',
  /** The provider fails (500) for this one. */
  broken: 'agent_broken_0123456789',
} as const;
