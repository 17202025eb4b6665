// Package hub reads model architectures from the Hugging Face Hub so that
// any model there can be planned by its id ("meta-llama/Llama-3.2-3B").
//
// A Client fetches a model's config.json from
// {Endpoint}/{org}/{name}/resolve/main/config.json (the Hub's own URL
// scheme; HF_ENDPOINT points it at a mirror), sends HF_TOKEN as a bearer
// token for gated models, and keeps each file in an on-disk cache that
// answers later requests without the network. Failures are typed (*Error
// matching ErrGated, ErrNotFound, ErrOffline, ErrMalformed, ErrInvalidID,
// ErrUnsupported) and say what to do; they never contain the token.
//
// ModelFromConfig derives a planner.Model from a config.json for the
// families people use — dense decoders (Llama, Mistral, Qwen2/3, Gemma,
// Phi-3), mixture-of-experts decoders (Mixtral, Qwen2/3-MoE,
// DeepSeek-V2/V3, Kimi K2), GPT-2, encoders (BERT, RoBERTa, ModernBERT),
// encoder-decoders (T5, Whisper) and vision transformers (ViT, CLIP) —
// with the parameter count computed from the architecture, layer by layer.
// Load accepts either a Hub id or the path of a local config.json (or of a
// directory holding one).
//
// The package imports only the standard library and planner.
package hub
