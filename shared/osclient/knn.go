package osclient

// KNNSpace is the k-NN vector space for an engine. Firmo normalizes vectors before indexing,
// so inner product is cosine: faiss takes innerproduct (its cosinesimil needs 2.19+), lucene
// cosinesimil.
func KNNSpace(engine string) string {
	if engine == "faiss" {
		return "innerproduct"
	}
	return "cosinesimil"
}

// KNNCosine converts a k-NN score of that space back to cosine similarity, per the k-NN
// plugin's score table: lucene cosinesimil scores (1 + cos) / 2; faiss innerproduct scores
// 1 + ip for ip >= 0 and 1 / (1 - ip) below.
func KNNCosine(engine string, score float64) float64 {
	if engine == "faiss" {
		if score >= 1 {
			return score - 1
		}
		return 1 - 1/score
	}
	return 2*score - 1
}
