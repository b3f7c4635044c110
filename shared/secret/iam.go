package secret

// IAMActions are the KMS actions this package calls: Decrypt, when an Envelope opens a
// value whose data key it does not hold. Sealing's kms:GenerateDataKey is called
// through KMSOptions.DataKeys by kmssecret, which lists it. template.yaml grants them on
// the stack's key to the functions given FIRMO_KMS_KEY_ID; TestIAMActions and the
// template test compare them with the code.
var IAMActions = []string{"kms:Decrypt"}
