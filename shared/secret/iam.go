package secret

// IAMActions are the KMS actions an Envelope calls on its key: GenerateDataKey when it
// seals, Decrypt when it opens a value whose data key it does not hold. template.yaml
// grants them on the stack's key to the functions given FIRMO_KMS_KEY_ID; TestIAMActions
// and the template test compare them with the code.
var IAMActions = []string{"kms:GenerateDataKey", "kms:Decrypt"}
